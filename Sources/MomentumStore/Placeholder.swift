// MomentumStore
