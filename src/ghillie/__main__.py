"""python -m ghillie"""

from ghillie.cli import main

main()
