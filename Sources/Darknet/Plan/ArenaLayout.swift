/// Which layer outputs survive a forward pass so they can be read afterwards.
public enum LayerSelection: Sendable, Equatable {
    /// Only the detection heads (`[yolo]`, `[region]`), which are always kept.
    case detection
    /// Every layer's output.
    case all
    /// The detection heads and these layer indices.
    case layers(Set<Int>)
}

/// Where each layer's output lives in one activation arena.
///
/// Offsets are assigned first-fit in layer order; a buffer is released after the last layer
/// that reads it, so later outputs reuse its space. Retained outputs are never released.
/// Offsets are rounded to 16 floats (64 bytes) so every buffer starts on a cache line.
public struct ArenaLayout: Sendable, Equatable {
    /// Offset of the network input in the arena.
    public let inputOffset: Int
    /// Offset of each layer's output, by layer index.
    public let outputOffsets: [Int]
    /// Floats the arena must hold.
    public let count: Int
    /// Layers whose outputs are valid after a forward pass.
    public let retained: Set<Int>
    /// The `[shortcut]` layers the convolution before them computes (`NetworkPlan.fusibleShortcuts`
    /// whose convolution's output is not retained): each one's output is that convolution's buffer.
    package let fusedShortcuts: Set<Int>

    static let alignment = 16

    /// Lays out `plan`, keeping `selection` (plus every detection head) alive to the end.
    public init(plan: NetworkPlan, retaining selection: LayerSelection) {
        let layerCount = plan.layers.count
        var retained = Set(plan.detectionHeads.map(\.index))
        switch selection {
        case .detection: break
        case .all: retained.formUnion(0..<layerCount)
        case .layers(let chosen): retained.formUnion(chosen.filter { (0..<layerCount).contains($0) })
        }

        let fused = plan.fusibleShortcuts.filter { !retained.contains($0 - 1) }

        // Slot 0 is the network input, slot i + 1 the output of layer i. A slot is released
        // after the last layer that reads it (or right after it is written if none does). A fused
        // shortcut has no slot: its output is its convolution's, which lives as long as either.
        var releaseAfter = [Int](repeating: 0, count: layerCount + 1)
        for slot in 1...layerCount { releaseAfter[slot] = slot - 1 }
        for layer in plan.layers {
            for source in layer.sources { releaseAfter[source + 1] = max(releaseAfter[source + 1], layer.index) }
        }
        var kept = Set(retained.map { $0 + 1 })
        for shortcut in fused {
            releaseAfter[shortcut] = max(releaseAfter[shortcut], releaseAfter[shortcut + 1])
            if kept.contains(shortcut + 1) { kept.insert(shortcut) }
        }
        var releases = [[Int]](repeating: [], count: layerCount)
        for (slot, layer) in releaseAfter.enumerated() where !kept.contains(slot) && !fused.contains(slot - 1) {
            releases[layer].append(slot)
        }

        var allocator = FirstFitAllocator()
        var offsets = [Int](repeating: 0, count: layerCount)
        let inputOffset = allocator.allocate(Self.rounded(plan.inputShape.count), id: 0)
        for layer in plan.layers {
            offsets[layer.index] = fused.contains(layer.index) ? offsets[layer.index - 1]
                : allocator.allocate(Self.rounded(layer.outputShape.count), id: layer.index + 1)
            for slot in releases[layer.index] { allocator.release(id: slot) }
        }
        self.inputOffset = inputOffset
        self.outputOffsets = offsets
        self.count = allocator.highWater
        self.retained = retained
        self.fusedShortcuts = fused
    }

    private static func rounded(_ count: Int) -> Int {
        (count + alignment - 1) / alignment * alignment
    }
}

/// Intervals of a linear arena handed out lowest-address-first.
struct FirstFitAllocator {
    private var live: [(offset: Int, size: Int, id: Int)] = []  // sorted by offset
    private(set) var highWater = 0

    mutating func allocate(_ size: Int, id: Int) -> Int {
        var candidate = 0
        var insertAt = live.count
        for (position, block) in live.enumerated() {
            if block.offset - candidate >= size { insertAt = position; break }
            candidate = max(candidate, block.offset + block.size)
        }
        live.insert((candidate, size, id), at: insertAt)
        highWater = max(highWater, candidate + size)
        return candidate
    }

    mutating func release(id: Int) {
        live.removeAll { $0.id == id }
    }
}
