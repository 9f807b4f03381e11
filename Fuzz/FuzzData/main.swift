#if FUZZ_REPLAY
import FuzzReplay
#endif
import Darknet
import Foundation

// libFuzzer target: `.data` bytes through `DataFile` (Darknet's `key = value` syntax, the
// `classes` check, the lookup of a relative `names` in three folders). Anything but a typed
// `DataFileError` or a file whose values are consistent is a finding.

let dataFile = URL(fileURLWithPath: "/nonexistent-fuzz/cfg/fuzz.data")
let workingDirectory = URL(fileURLWithPath: "/nonexistent-fuzz/work")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
    do {
        let file = try DataFile(bytes: bytes, url: dataFile, workingDirectory: workingDirectory)
        check(file.path == dataFile.path, "the path changed")
        if let classes = file.classes { check(classes >= 1 && file.values["classes"] != nil, "classes without a value") }
        if let names = file.names { check(FileManager.default.fileExists(atPath: names.path), "a names file that does not exist") }
        check(file.values.keys.allSatisfy { !$0.isEmpty }, "an empty key")
        do {
            try file.check(classes: 80, cfg: "fuzz.cfg")
            check(file.classes == nil || file.classes == 80, "a class count mismatch passed")
        } catch {
            check(file.classes != nil && file.classes != 80, "a matching class count refused")
        }
    } catch {
        check(!error.description.isEmpty && error.file == dataFile.path, "an error that does not name the file")
    }
    return 0
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

#if FUZZ_REPLAY
// A declaration, not a statement: libFuzzer builds parse this file as a library.
let replayed: Void = replayInputs("FuzzData", fuzz)
#endif
