import Testing

@testable import MomentumServer

/// One event loop for each core the process may run on, as `/proc/self/status` says.
@Suite("Server event loops: as many as the cores the process may use")
struct ServerEventLoopsTests {
    @Test(arguments: [
        ("Name:\tmomentum\nCpus_allowed_list:\t0\n", 1),
        ("Cpus_allowed_list:\t0-1\n", 2),
        ("Cpus_allowed_list:\t0-3,6,8-9\nMems_allowed_list:\t0\n", 7),
    ])
    func theAllowedCPUsAreCounted(status: String, count: Int) {
        #expect(ServerEventLoops.cpuCount(inStatus: status) == count)
    }

    @Test(arguments: [
        "Name:\tmomentum\n", "Cpus_allowed_list:\t\n", "Cpus_allowed_list:\t3-1\n", "Cpus_allowed_list:\tx\n",
    ])
    func withoutAReadableListNothingIsCounted(status: String) {
        #expect(ServerEventLoops.cpuCount(inStatus: status) == nil)
    }

    @Test func theServerHasAtLeastOneLoopAndNoMoreThanTheMachinesCores() {
        #expect(ServerEventLoops.threadCount >= 1)
    }
}
