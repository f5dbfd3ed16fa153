"""The server's routes, one module per resource: the games' HTTP API
(:mod:`.games`), a game's WebSocket (:mod:`.ws`), and the browser client's
pages and files (:mod:`.pages`)."""
