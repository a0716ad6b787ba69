"""`python -m fastapply` runs the CLI."""

import sys

from fastapply.cli import main

sys.exit(main())
