"""The rules' core: the game and the state as data, the cards, the map, the rule set's
registries and what goes into the tower. It imports nothing above it (tests/rules/test_layers.py).
"""
