/// What a decoder reads from a file's header before handing it to its library: the size, to
/// refuse absurd images before the library allocates, and the EXIF orientation. Read by
/// scanning the bytes (`init(jpeg:)`, `init(png:)`), which never fails: anything it cannot read
/// is left `nil` for the library to judge.
struct ImageHeader {
    var width: Int?
    var height: Int?
    var orientation: EXIFOrientation?

    /// Throws `ImageFileError.tooLarge` when the header gives a size over `limits`.
    func check(_ limits: DecodeLimits, path: String) throws(ImageFileError) {
        if let width, let height { try limits.check(width: width, height: height, path: path) }
    }
}
