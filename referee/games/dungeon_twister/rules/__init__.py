"""The rules of Dungeon Twister, split by mechanic (each module cites its rule IDs)."""
