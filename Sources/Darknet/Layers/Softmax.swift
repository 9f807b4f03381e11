import Foundation

/// `[softmax]` / `[soft]`: softmax over the whole input, or over each of `groups` equal
/// consecutive slices of it; with a class hierarchy (`tree=`, darknet9000), over each group of
/// sibling classes of the tree instead.
public struct SoftmaxSpec: Sendable, Equatable {
    /// Number of independent slices (`groups`, default 1); must divide the input size. Unused
    /// with a `tree`, as in Darknet.
    public var groups: Int
    /// Divides every input before the exponential (`temperature`, default 1).
    public var temperature: Float
    /// The class hierarchy file the cfg names (`tree=`): a softmax per group of siblings, whose
    /// values a classifier then multiplies along each class's path (`ClassTree`).
    public var treeFile: ClassTreeReference?
    /// That hierarchy, read when a network is loaded (`NetworkSpec.loadingClassTrees()`); nil
    /// in a spec as parsed.
    public var tree: ClassTree?

    public init(groups: Int, temperature: Float, treeFile: ClassTreeReference? = nil, tree: ClassTree? = nil) {
        self.groups = groups
        self.temperature = temperature
        self.treeFile = treeFile
        self.tree = tree
    }
}

extension SoftmaxSpec: WeightlessLayer {
    static let sectionNames = ["softmax", "soft"]

    static func read(_ r: inout SectionReader, index: Int) throws(CfgError) -> SoftmaxSpec {
        r.ignore(TrainingKeys.softmax)
        let groups = try r.int("groups", default: 1, minimum: 1)
        let temperature = try r.float("temperature", default: 1)
        guard temperature > 0 else {
            throw r.error("temperature", .invalidValue(value: String(temperature), expected: "a positive number"))
        }
        let treeFile = r.classTree("tree")
        // Darknet's CPU forward ignores `spatial`, its GPU forward does not: refuse the ambiguity.
        try r.requireNeutral("spatial", 0, feature: "spatial softmax")
        return SoftmaxSpec(groups: groups, temperature: temperature, treeFile: treeFile)
    }

    func plan(_ context: LayerPlanningContext) throws(PlanError) -> LayerPlanning {
        if let tree {
            guard context.input.count == tree.count else {
                throw context.fail(.treeClassCountMismatch(inputs: context.input.count, treeClasses: tree.count))
            }
            return LayerPlanning(output: context.input)
        }
        // A tree not yet read (`loadingClassTrees()`) is checked when it is.
        if treeFile != nil { return LayerPlanning(output: context.input) }
        guard context.input.count % groups == 0 else {
            throw context.fail(.softmaxGroupsNotDividing(inputs: context.input.count, groups: groups))
        }
        return LayerPlanning(output: context.input)
    }

    func summary(_ layer: LayerPlan) -> String {
        String(format: "softmax                                        %5d", layer.outputShape.count)
    }

    func run(_ layer: LayerPlan, in pass: ForwardPass) {
        let input = pass.input(of: layer), output = pass.output(of: layer)
        if let tree {
            TreeSoftmax.forwardSoftmaxLayer(input, tree: tree, temperature: temperature, into: output)
            return
        }
        let size = layer.inputShape.count / groups
        for g in 0..<groups {
            softmax(input + g * size, count: size, temperature: temperature, into: output + g * size)
        }
    }
}

extension TrainingKeys {
    /// `[softmax]`: `noloss` only affects the training loss.
    static let softmax: Set<String> = ["noloss"]
}
