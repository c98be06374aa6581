from cts_dataset.cli import main

main()
