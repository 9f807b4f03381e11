/// Shapes and parameter counts of the YOLOv2 and classifier layers.
extension NetworkPlan {
    /// The output shape and learned-parameter count of a `[region]`, `[reorg]`, `[avgpool]`,
    /// `[softmax]`, `[connected]`, `[dropout]`, `[batchnorm]`, `[cost]` or `[crop]` layer
    /// reading `input`. None of them counts FLOPs (Darknet counts convolutions only).
    static func planDarknetLayer(_ kind: LayerKind, input: TensorShape,
                                 fail: (PlanError.Reason) -> PlanError) throws(PlanError) -> (output: TensorShape, parameters: Int) {
        switch kind {
        case .region(let region):
            let expected = region.num * region.entries
            guard input.channels == expected else { throw fail(.regionChannelMismatch(expected: expected, actual: input.channels)) }
            return (input, 0)

        case .reorg(let reorg):
            let s = reorg.stride
            if reorg.extra > 0 {
                let (count, overflow) = input.count.addingReportingOverflow(reorg.extra)
                guard !overflow else { throw fail(.sizeOverflow) }
                return (TensorShape(channels: count, height: 1, width: 1), 0)
            }
            guard input.width % s == 0, input.height % s == 0, input.channels % (s * s) == 0 else {
                throw fail(.reorgNotDivisible(input: input, stride: s))
            }
            if reorg.reverse {
                return (TensorShape(channels: input.channels / (s * s), height: input.height * s, width: input.width * s), 0)
            }
            return (TensorShape(channels: input.channels * s * s, height: input.height / s, width: input.width / s), 0)

        case .avgpool:
            return (TensorShape(channels: input.channels, height: 1, width: 1), 0)

        case .softmax(let softmax):
            guard input.count % softmax.groups == 0 else {
                throw fail(.softmaxGroupsNotDividing(inputs: input.count, groups: softmax.groups))
            }
            return (input, 0)

        case .connected(let connected):
            let (weights, overflow) = connected.outputs.multipliedReportingOverflow(by: input.count + 1)
            // BLAS takes the input size (GEMM's k) as a 32-bit int.
            guard !overflow, input.count < Int(Int32.max) else { throw fail(.sizeOverflow) }
            return (TensorShape(channels: connected.outputs, height: 1, width: 1), weights)

        case .dropout, .cost:
            return (input, 0)

        case .batchnorm:
            return (input, 2 * input.channels)

        case .crop(let crop):
            guard crop.cropWidth <= input.width, crop.cropHeight <= input.height else {
                throw fail(.cropLargerThanInput(width: crop.cropWidth, height: crop.cropHeight, input: input))
            }
            return (TensorShape(channels: input.channels, height: crop.cropHeight, width: crop.cropWidth), 0)

        case .convolutional, .maxpool, .route, .upsample, .shortcut, .yolo, .scaleChannels, .sam:
            preconditionFailure("planDarknetLayer called for [\(kind.sectionName)]")
        }
    }
}
