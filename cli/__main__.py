import sys

from langchain_hugginggpt.cli.main import main

sys.exit(main())
