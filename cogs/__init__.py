"""Thin discord.py cogs: parse options, call the service, render, reply."""
