// Placeholder until this target's work lands; replaced by its first real file.
