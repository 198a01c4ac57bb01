import sys

from jobtracker.cli import main

sys.exit(main())
