"""The referee server: durable games, a JSON API and a websocket per side, and the pages."""
