@_spi(KeptScratch) import Backdrop
import Testing

/// ``KeptScratch``: the box passes' scratch kept from one ImageEffects render for the next, so that a process with
/// malloc's defaults does not fault a frame's pages in again at every render. Each test has a keeper of its own: the
/// renderer's (`shared`) is used by renders that run beside these tests.
struct KeptScratchTests {
    @Test func aBufferIsLentAtItsSizeAndKeptForTheNextCall() {
        let keeper = KeptScratch(largestKeptBytes: 1 << 20)
        let first = keeper.withBuffer(count: 4096) { buffer in
            #expect(buffer.count == 4096)
            buffer.initialize(repeating: 7)
            return buffer.baseAddress
        }
        #expect(keeper.keptBytes == 4096)
        // A smaller request gets the kept storage, cut to its size.
        let second = keeper.withBuffer(count: 1000) { buffer in
            #expect(buffer.count == 1000)
            return buffer.baseAddress
        }
        #expect(first == second)
        #expect(keeper.keptBytes == 4096)
    }

    @Test func aLargerRequestAllocatesAndTheLargerBufferIsKept() {
        let keeper = KeptScratch(largestKeptBytes: 1 << 20)
        keeper.withBuffer(count: 100) { _ in }
        keeper.withBuffer(count: 5000) { buffer in #expect(buffer.count == 5000) }
        #expect(keeper.keptBytes == 5000)
        keeper.withBuffer(count: 300) { _ in }
        #expect(keeper.keptBytes == 5000)
    }

    @Test func aBufferOverTheLimitIsNotKept() {
        let keeper = KeptScratch(largestKeptBytes: 1024)
        keeper.withBuffer(count: 1025) { buffer in #expect(buffer.count == 1025) }
        #expect(keeper.keptBytes == 0)
        keeper.withBuffer(count: 1024) { _ in }
        #expect(keeper.keptBytes == 1024)
    }

    @Test func twoCallsAtOnceNeverShareABuffer() {
        let keeper = KeptScratch(largestKeptBytes: 1 << 20)
        keeper.withBuffer(count: 64) { _ in }
        keeper.withBuffer(count: 64) { outer in
            keeper.withBuffer(count: 64) { inner in #expect(inner.baseAddress != outer.baseAddress) }
        }
        #expect(keeper.keptBytes == 64)
    }

    @Test func nothingIsLentForAnEmptyRequest() {
        let keeper = KeptScratch(largestKeptBytes: 1 << 20)
        keeper.withBuffer(count: 64) { _ in }
        keeper.withBuffer(count: 0) { buffer in #expect(buffer.isEmpty) }
        #expect(keeper.keptBytes == 64)
    }
}
