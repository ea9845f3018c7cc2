// MomentumCLI
