import Foundation

/// Runs a libFuzzer target's entry point once on each input file, for builds without libFuzzer
/// (`-D FUZZ_REPLAY`): where libFuzzer does not link, as on aarch64 under emulation
/// (`scripts/aarch64.sh`). Each argument is a file, or a folder whose files (not recursive) run
/// in name order. Prints how many inputs ran and exits 0; a finding traps in the target, as it
/// does under libFuzzer. Exits 2 when an input cannot be read or none is given.
public func replayInputs(_ target: String, _ entry: (UnsafeRawPointer, Int) -> CInt) {
    let files = FileManager.default
    var count = 0
    for argument in CommandLine.arguments.dropFirst() {
        var isFolder: ObjCBool = false
        guard files.fileExists(atPath: argument, isDirectory: &isFolder) else { fail(target, "no file or folder \(argument)") }
        let paths = isFolder.boolValue
            ? ((try? files.contentsOfDirectory(atPath: argument)) ?? []).sorted().map { argument + "/" + $0 }
            : [argument]
        for path in paths {
            guard let data = files.contents(atPath: path) else { fail(target, "cannot read \(path)") }
            // libFuzzer never passes a null pointer, even for an empty input.
            var bytes = [UInt8](data)
            bytes.append(0)
            _ = bytes.withUnsafeBufferPointer { entry(UnsafeRawPointer($0.baseAddress!), data.count) }
            count += 1
        }
    }
    guard count > 0 else { fail(target, "no inputs given") }
    print("\(target): \(count) inputs, no finding")
    exit(0)
}

private func fail(_ target: String, _ message: String) -> Never {
    FileHandle.standardError.write(Data("\(target): \(message)\n".utf8))
    exit(2)
}
