extension ImageHeader {
    /// A PNG's: the size from IHDR, if the first chunk is a well-formed IHDR, and the
    /// orientation from the first `eXIf` chunk before the image data (TIFF structure at the start
    /// of the chunk), which OpenCV's `imread` applies. Walks the chunks after the signature up
    /// to the first IDAT (or damage).
    init(png bytes: [UInt8]) {
        let n = bytes.count
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        var i = 8
        var first = true
        while i + 8 <= n {
            let length = u32(i)
            let type = Array(bytes[(i + 4)..<(i + 8)])
            let dataStart = i + 8
            let dataEnd = min(n, dataStart + length)
            if first {
                first = false
                guard type == Array("IHDR".utf8), dataStart + 8 <= dataEnd else { return }
                width = u32(dataStart)
                height = u32(dataStart + 4)
            } else if type == Array("IDAT".utf8) {
                return
            } else if type == Array("eXIf".utf8), orientation == nil {
                orientation = EXIFOrientation(tiff: bytes[dataStart..<dataEnd])
            }
            i = dataStart + length + 4  // data, CRC
        }
    }
}
