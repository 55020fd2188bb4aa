"""``python -m affray``: the same as the ``affray`` command."""

from affray.cli.main import main

if __name__ == "__main__":
    main()
