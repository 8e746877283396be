"""Match-file formats: reading and writing .mat transcriptions and other interchange formats."""
