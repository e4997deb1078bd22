import Foundation
import GNSS
import Testing

@Suite("Fix mailbox")
struct FixMailboxTests {
    @Test func handsOverFixesAndStateChangesOnce() {
        let box = FixMailbox()
        box.setState(.connected)
        box.setState(.connected)   // unchanged: not recorded twice
        box.setState(.waitingForFix)
        box.post(ReceivedFix(fix: Fix(time: 1, mode: .twoD, lat: 1, lon: 2), receivedAt: 10))
        let first = box.take(now: 10.5)
        #expect(first.fixes.count == 1)
        #expect(first.stateChanges == [.connected, .waitingForFix])
        #expect(first.state == .waitingForFix)
        #expect(first.current?.fix.lat == 1)
        let second = box.take(now: 20)
        #expect(second.fixes.isEmpty && second.stateChanges.isEmpty)
        #expect(second.latest?.fix.lat == 1)
        #expect(second.latestIsStale && second.current == nil)
    }

    @Test func keepsAtMostItsCapacityDroppingTheOldest() {
        let box = FixMailbox(capacity: 3)
        for k in 0..<5 { box.post(ReceivedFix(fix: Fix(time: Double(k)), receivedAt: 0)) }
        #expect(box.take(now: 0).fixes.map(\.fix.time) == [2, 3, 4])
        #expect(box.droppedCount == 2)
    }

    @Test func producerAndConsumerOnDifferentThreadsLoseNothing() {
        let box = FixMailbox(capacity: 100_000)
        let total = 20_000
        let producer = Thread {
            for k in 0..<total { box.post(ReceivedFix(fix: Fix(time: Double(k)), receivedAt: 0)) }
            box.setState(.connected)
        }
        producer.start()
        var received: [Double] = []
        let deadline = Date().addingTimeInterval(10)
        while received.count < total, Date() < deadline {
            received += box.take(now: 0).fixes.compactMap(\.fix.time)
        }
        #expect(received == (0..<total).map(Double.init))
    }
}
