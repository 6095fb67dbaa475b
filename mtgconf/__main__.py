import sys

from mtgconf import main

sys.exit(main())
