/// The one-frame JSON reply to Frigate's model handshake: `{"model_available", "model_loaded"}`
/// for a `model_request`, `{"model_saved", "model_loaded"}` for a `model_data`, with the name
/// and a message a person can read (Frigate logs its own words; the server's log says why).
struct ModelHandshakeReply: Encodable, Sendable {
    var modelAvailable: Bool?
    var modelSaved: Bool?
    var modelLoaded: Bool
    var modelName: String
    var message: String

    enum CodingKeys: String, CodingKey {
        case modelAvailable = "model_available", modelSaved = "model_saved", modelLoaded = "model_loaded"
        case modelName = "model_name", message
    }
}
