"""python -m ghillie.cli"""

from ghillie.cli import main

main()
