"""Simulation: one player's wall draws (:mod:`.draws`), four-player games (:mod:`.games`),
and the chunking, seeding and executors they share (:mod:`._chunks`)."""
