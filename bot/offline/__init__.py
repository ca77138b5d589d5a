"""Running Skirmish without Discord: the harness, the console and the benchmark."""
