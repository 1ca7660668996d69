"""The built-in Toy env (``AgentGym/Toy-v0``)."""
