// MomentumServices
