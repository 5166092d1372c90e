"""``python -m cspsolve ...``: the ``cspsolve`` command, for an environment whose scripts folder
is not on ``PATH``."""

from cspsolve.cli import main

if __name__ == "__main__":
    main()
