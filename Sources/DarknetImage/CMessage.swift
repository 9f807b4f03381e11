/// Text from the fixed-size `char message[N]` buffers the C shims fill in.
enum CMessage {
    /// The NUL-terminated UTF-8 string at the start of `tuple` (a C `char[N]` imported as a
    /// tuple), or "" if it is empty.
    static func string<Tuple>(from tuple: Tuple) -> String {
        withUnsafeBytes(of: tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
