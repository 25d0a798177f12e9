public import HealthModel

/// The per-object prompt listing in frames (`HealthManager/ListPerObjectRequests` streams them):
/// every pending request, cut by `FrameBatcher` at `WireLimits.resultBatchBytes`. A request whose
/// candidates do not fit one frame continues in the next as a piece with the same request id and
/// its next candidates; `merged` joins the pieces again. Candidates are summaries
/// (`PerObjectReadService`: no metadata, no device), so each is a few KB at most and a frame holds
/// at most the bound plus one candidate and one request's heading.
extension PerObjectPromptList {
    public static func frames(_ prompts: [PerObjectPrompt], maxBytes: Int = WireLimits.resultBatchBytes) -> [PerObjectPromptList] {
        enum Item {
            case heading(Int)
            case candidate(Int, SampleRecord)
        }
        var items: [(item: Item, size: Int)] = []
        for (index, prompt) in prompts.enumerated() {
            items.append((.heading(index), PerObjectPromptList([prompt.heading]).wireBytes().count))
            for candidate in prompt.candidates {
                items.append((.candidate(index, candidate), SampleList([candidate]).wireBytes().count))
            }
        }
        return FrameBatcher.batches(items, maxBytes: maxBytes, size: \.size).map { batch in
            var pieces: [PerObjectPrompt] = []
            for (item, _) in batch {
                switch item {
                case let .heading(index):
                    pieces.append(prompts[index].heading)
                case let .candidate(index, candidate):
                    if pieces.last?.requestID != prompts[index].requestID { pieces.append(prompts[index].heading) }
                    pieces[pieces.count - 1].candidates.append(candidate)
                }
            }
            return PerObjectPromptList(pieces)
        }
    }

    /// The requests of a listing's frames, each piece of one request joined into it in order.
    public static func merged(_ pieces: some Sequence<PerObjectPrompt>) -> [PerObjectPrompt] {
        var prompts: [PerObjectPrompt] = []
        for piece in pieces {
            if let last = prompts.indices.last, prompts[last].requestID == piece.requestID {
                prompts[last].candidates += piece.candidates
            } else {
                prompts.append(piece)
            }
        }
        return prompts
    }
}

extension PerObjectPrompt {
    /// The request without its candidates.
    var heading: PerObjectPrompt {
        var heading = self
        heading.candidates = []
        return heading
    }
}
