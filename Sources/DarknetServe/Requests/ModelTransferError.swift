import Darknet

/// Why a model Frigate named or transferred (`model_request`, `model_data`) is not served: the
/// reply then says `model_loaded: false` and the log line gives this reason.
public enum ModelTransferError: DarknetError, Equatable, Sendable {
    /// `model_name` is missing or is not a plain file name (printable ASCII, no `/` or `\`, no
    /// leading dot).
    case name(String)
    /// `model_data` came without the model's bytes (its second frame).
    case noBytes
    /// The server keeps no transferred models (no model directory).
    case noDirectory
    /// The bytes are not a Darknet bundle this server reads (the reason).
    case bundle(String)
    /// The bytes could not be saved (the reason).
    case save(String)
    /// The saved model did not load: its cfg, weights or names (the library's error).
    case load(String)
    /// This many handshakes already wait for the one before them (each model loads in turn).
    case busy(Int)

    public var description: String {
        switch self {
        case .name(let name):
            "model_name '\(name)': expected a file name of printable ASCII without '/' or '\\', not starting with '.' (at most 128)"
        case .noBytes:
            "model_data needs 2 frames: the JSON header and the model file's bytes"
        case .noDirectory:
            "this server keeps no transferred models (start it with --zmq-models DIR)"
        case .bundle(let reason):
            "not a Darknet model this server loads: \(reason); send a .tar of one .cfg, one .weights and a .names, or a .weights for the served model's cfg"
        case .save(let reason):
            "the model could not be saved: \(reason)"
        case .load(let reason):
            "the model did not load: \(reason)"
        case .busy(let waiting):
            "\(waiting) model handshakes already wait; retry shortly"
        }
    }
}
