"""Simulation: one player's wall draws (:mod:`.draws`), four-player games (:mod:`.games`),
whole matches of hands in a row (:mod:`.matches`), and the chunking, seeding and executors they
share (:mod:`._chunks`)."""
