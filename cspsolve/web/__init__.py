"""The local web page of ``cspsolve serve``: read a puzzle, solve, explain, check, compare.

:func:`cspsolve.web.app.create_app` builds the Starlette application; its jobs run in worker
processes (:mod:`cspsolve.web.pool`). Importing this package imports neither Starlette nor
uvicorn (the ``web`` extra installs them).
"""
