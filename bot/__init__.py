"""The application shell: entry point, settings, service, command tree, offline harness and console."""
