/// Where an image of `imageWidth x imageHeight` lands inside a network input of
/// `networkWidth x networkHeight` when letterboxed the way Darknet does it.
///
/// The resized size uses Darknet's integer arithmetic: if `netW / imgW < netH / imgH`
/// (float) the width fills the network (`resizedHeight = imgH * netW / imgW`, integer
/// division), otherwise the height does. The resized image sits at
/// `((netW - resizedW) / 2, (netH - resizedH) / 2)` on a canvas of 0.5.
public struct LetterboxGeometry: Sendable, Equatable {
    public let imageWidth: Int
    public let imageHeight: Int
    public let networkWidth: Int
    public let networkHeight: Int
    public let resizedWidth: Int
    public let resizedHeight: Int

    /// Left edge of the pasted image on the canvas.
    public var offsetX: Int { (networkWidth - resizedWidth) / 2 }
    /// Top edge of the pasted image on the canvas.
    public var offsetY: Int { (networkHeight - resizedHeight) / 2 }

    /// Darknet's letterbox geometry for the given sizes (all must be positive).
    ///
    /// For extreme aspect ratios where Darknet's integer division gives 0 (say a 1000x1
    /// image into 416x416), the resized side is 1 instead; Darknet itself breaks there.
    public init(imageWidth: Int, imageHeight: Int, networkWidth: Int, networkHeight: Int) {
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.networkWidth = networkWidth
        self.networkHeight = networkHeight
        if Float(networkWidth) / Float(imageWidth) < Float(networkHeight) / Float(imageHeight) {
            resizedWidth = networkWidth
            resizedHeight = max(1, (imageHeight * networkWidth) / imageWidth)
        } else {
            resizedHeight = networkHeight
            resizedWidth = max(1, (imageWidth * networkHeight) / imageHeight)
        }
    }

    /// Darknet's letterbox geometry or, without `letterbox`, the stretch's.
    init(imageWidth: Int, imageHeight: Int, networkWidth: Int, networkHeight: Int, letterbox: Bool) {
        self = letterbox
            ? LetterboxGeometry(imageWidth: imageWidth, imageHeight: imageHeight, networkWidth: networkWidth,
                                networkHeight: networkHeight)
            : LetterboxGeometry(stretchingWidth: imageWidth, height: imageHeight, networkWidth: networkWidth,
                                networkHeight: networkHeight)
    }

    /// The geometry of a plain stretch resize: the image fills the whole input.
    public init(stretchingWidth imageWidth: Int, height imageHeight: Int, networkWidth: Int, networkHeight: Int) {
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.networkWidth = networkWidth
        self.networkHeight = networkHeight
        resizedWidth = networkWidth
        resizedHeight = networkHeight
    }
}
