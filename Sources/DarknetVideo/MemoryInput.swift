import CFFmpeg

/// A libavformat I/O context reading (and seeking) in bytes held in memory.
final class MemoryInput {
    private let bytes: UnsafeMutableRawBufferPointer
    private var position = 0
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    init?(_ data: [UInt8]) {
        bytes = .allocate(byteCount: max(1, data.count), alignment: 16)
        bytes.copyBytes(from: data)
        count = data.count
        let bufferSize = 4096
        guard let buffer = av_malloc(bufferSize) else { bytes.deallocate(); return nil }
        context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 0, nil,
                                     { opaque, destination, size in
                                         Unmanaged<MemoryInput>.fromOpaque(opaque!).takeUnretainedValue().read(destination!, Int(size))
                                     }, nil,
                                     { opaque, offset, whence in
                                         Unmanaged<MemoryInput>.fromOpaque(opaque!).takeUnretainedValue().seek(offset, whence)
                                     })
        guard let context else { av_free(buffer); bytes.deallocate(); return nil }
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
    }

    private let count: Int

    deinit {
        if let context { av_free(context.pointee.buffer) }
        avio_context_free(&context)
        bytes.deallocate()
    }

    private func read(_ destination: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int32 {
        let available = count - position
        guard available > 0 else { return sd_averror_eof() }
        let n = min(size, available)
        UnsafeMutableRawPointer(destination).copyMemory(from: bytes.baseAddress! + position, byteCount: n)
        position += n
        return Int32(n)
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return Int64(count) }
        let base: Int
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = count
        default: return -1
        }
        let (target, overflow) = Int64(base).addingReportingOverflow(offset)
        guard !overflow, target >= 0, target <= Int64(count) else { return -1 }
        position = Int(target)
        return target
    }
}
