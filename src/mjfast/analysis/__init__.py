"""Analysis on top of the kernels and simulations: call versus pass, payout distributions, plots."""
