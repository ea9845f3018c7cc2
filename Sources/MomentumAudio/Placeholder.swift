// MomentumAudio
