"""The base game's phases: set-up, the season's phases, the actions, winter. Each module declares
its phases, decision kinds, chance nodes and questions, and imports only the core."""
