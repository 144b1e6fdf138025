"""Fae Domains decisions: what to do at a count, defence, called shots and flight or mount
tactics, registered with the shared registry.
"""
