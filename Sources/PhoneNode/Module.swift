// Placeholder until the first file of this module lands.
