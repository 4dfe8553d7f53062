/// One step of an ``ImageEffectsPlan`` on 8-bit RGBA rows (``ByteRows``), its maths apart from its schedule (as
/// ``RowPass`` is for the system passes): the pass computes a band of output rows; which rows make a band, on which
/// thread it runs, which buffers it reads and writes and whether it runs as a pass of its own are the executor's
/// (`Renderer.render(_:imageEffects:mask:)`).
///
/// Contract: `write` computes every sample of rows `band` of `output` from `inputs` alone, the same values whatever
/// the band, so the output is the same for any thread count.
protocol ImageEffectsPass: Sendable {
    /// The step as the plan's listing (``ImageEffectsPlan/steps``) names it.
    var name: String { get }
    /// The least rows the executor gives a band: more where starting a band costs work of its own.
    var minimumRowsPerBand: Int { get }
    /// Writes rows `band` of `output` from `inputs`, in the order the plan's step lists them (nil: an input the
    /// render does not have, such as a mask not given). Called on worker threads, with disjoint bands.
    func write(_ band: Range<Int>, of output: ByteRows, reading inputs: [ByteRows?])
}
