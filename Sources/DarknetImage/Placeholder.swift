// The image module (decoders, encoders, drawing) lands on the image branch.
