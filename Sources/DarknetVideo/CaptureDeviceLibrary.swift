import CFFmpeg
import Foundation

/// libavdevice (cameras, screens, filter graphs as inputs), opened the first time a video is,
/// not when the program starts.
///
/// Behind it come libavfilter, SDL, PulseAudio, X11 and a second BLAS: about 80 shared
/// libraries whose symbol lookups every program linking it would pay at start-up, a video or
/// not (PERFORMANCE.md). The package still depends on it (`libavdevice-dev`); the two
/// functions used here are looked up by name.
enum CaptureDeviceLibrary {
    /// The functions this package calls.
    struct Functions: Sendable {
        let videoDeviceNext: sd_video_device_next_fn
    }

    /// libavdevice's soname, the version the headers describe (`libavdevice.so.59`).
    static let soname = "libavdevice.so.\(sd_avdevice_major())"

    /// Opened, with its inputs registered with libavformat, once; or why it could not be.
    static let functions: Result<Functions, LoadFailure> = {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(LoadFailure(reason: dlerror().map { String(cString: $0) } ?? "dlopen failed"))
        }
        guard let register = dlsym(handle, "avdevice_register_all"), let next = dlsym(handle, "av_input_video_device_next") else {
            return .failure(LoadFailure(reason: "\(soname) lacks avdevice_register_all or av_input_video_device_next"))
        }
        unsafeBitCast(register, to: sd_register_all_fn.self)()
        return .success(Functions(videoDeviceNext: unsafeBitCast(next, to: sd_video_device_next_fn.self)))
    }()

    /// Why libavdevice could not be opened (capture inputs are then unknown to libavformat).
    struct LoadFailure: Error, CustomStringConvertible {
        let reason: String
        var description: String { "libavdevice (capture devices) could not be loaded: \(reason)" }
    }

    /// Whether `format` is one of libavdevice's capture inputs; false when it is not loaded.
    static func isCaptureDevice(_ format: UnsafePointer<AVInputFormat>) -> Bool {
        guard case .success(let functions) = functions else { return false }
        return sd_is_capture_device(functions.videoDeviceNext, format) != 0
    }
}
