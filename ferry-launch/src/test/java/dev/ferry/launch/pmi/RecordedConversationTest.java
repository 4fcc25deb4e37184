package dev.ferry.launch.pmi;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PMI clients against conversations recorded from MPICH 4's Hydra ({@code mpiexec.hydra
 * -verbose}, Debian's mpich) and from the simple-PMI port mode that ferry run serves.
 */
class RecordedConversationTest {
    /**
     * Slurm's pmi2 plugin (22.05, src/plugins/mpi/pmi2/pmi2.c) refuses a fullinit without
     * {@code pmijobid}, {@code pmirank} and {@code threaded}; the job id comes from PMI_JOBID,
     * which slurmstepd sets ("JOBID.STEPID").
     */
    @Test
    void pmi2AsSlurmSpeaksIt() {
        ScriptedTransport t = new ScriptedTransport()
                .client("cmd=init pmi_version=2 pmi_subversion=0\n")
                .server("cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0\n")
                .client(PmiWire.v2("fullinit", "pmijobid", "12.0", "pmirank", "1", "threaded", "FALSE"))
                .server(ScriptedTransport.v2("cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=1;size=2;appnum=-1;debugged=FALSE;pmiverbose=FALSE;"))
                .client(PmiWire.v2("job-getid"))
                .server(ScriptedTransport.v2("cmd=job-getid-response;rc=0;jobid=12.0;"))
                .client(PmiWire.v2("kvs-put", "key", "ferry.node.1.n", "value", "1"))
                .server(ScriptedTransport.v2("cmd=kvs-put-response;rc=0;"))
                .client(PmiWire.v2("kvs-fence"))
                .server(ScriptedTransport.v2("cmd=kvs-fence-response;rc=0;"))
                .client(PmiWire.v2("kvs-get", "jobid", "12.0", "srcid", "-1", "key", "ferry.node.0.n"))
                .server(ScriptedTransport.v2("cmd=kvs-get-response;rc=0;found=TRUE;value=1;"))
                .client(PmiWire.v2("finalize"))
                .server(ScriptedTransport.v2("cmd=finalize-response;rc=0;"));
        Bootstrap b = Bootstraps.open(t, "auto", -1, 1, 2, "12.0");
        assertInstanceOf(Pmi2Client.class, b);
        assertEquals(1, b.rank());
        assertEquals(2, b.size());
        assertEquals("12.0", b.jobId());
        b.put("ferry.node.1.n", "1");
        b.fence();
        assertEquals("1", b.get("ferry.node.0.n"));
        b.close();
        assertTrue(t.finished() && t.closed);
    }

    @Test
    void pmi2AsHydraSpeaksIt() {
        ScriptedTransport t = new ScriptedTransport()
                .client("cmd=init pmi_version=2 pmi_subversion=0\n")
                .server("cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0\n")
                .client(PmiWire.v2("fullinit", "pmirank", "1", "threaded", "FALSE"))
                .server(ScriptedTransport.v2("cmd=fullinit-response;pmi-version=2;pmi-subversion=0;rank=1;size=2;appnum=0;debugged=TRUE;pmiverbose=TRUE;rc=0;"))
                .client(PmiWire.v2("job-getid"))
                .server(ScriptedTransport.v2("cmd=job-getid-response;jobid=kvs_18910_0_1986990307_vm;rc=0;"))
                .client(PmiWire.v2("kvs-put", "key", "ferry.node.1.n", "value", "1"))
                .server(ScriptedTransport.v2("cmd=kvs-put-response;rc=0;"))
                .client(PmiWire.v2("kvs-fence"))
                .server(ScriptedTransport.v2("cmd=kvs-fence-response;rc=0;"))
                .client(PmiWire.v2("kvs-get", "jobid", "kvs_18910_0_1986990307_vm", "srcid", "-1", "key", "ferry.jobkey"))
                .server(ScriptedTransport.v2("cmd=kvs-get-response;found=TRUE;value=a02898fa706ae97689063fa1637fc618;rc=0;"))
                .client(PmiWire.v2("kvs-get", "jobid", "kvs_18910_0_1986990307_vm", "srcid", "-1", "key", "nothing"))
                .server(ScriptedTransport.v2("cmd=kvs-get-response;found=FALSE;rc=0;"))
                .client(PmiWire.v2("finalize"))
                .server(ScriptedTransport.v2("cmd=finalize-response;rc=0;"));
        Bootstrap b = Bootstraps.open(t, "auto", -1, 1, 2);
        assertInstanceOf(Pmi2Client.class, b);
        assertEquals(1, b.rank());
        assertEquals(2, b.size());
        assertEquals("kvs_18910_0_1986990307_vm", b.jobId());
        assertFalse(b.wideUrlSupport(), "PMI-2 carries no wide URLs (seed 000)");
        b.put("ferry.node.1.n", "1");
        b.fence();
        assertEquals("a02898fa706ae97689063fa1637fc618", b.get("ferry.jobkey"));
        assertNull(b.get("nothing"));
        b.close();
        assertTrue(t.finished() && t.closed);
    }

    @Test
    void pmi1AsHydraSpeaksIt() {
        ScriptedTransport t = new ScriptedTransport()
                .client("cmd=init pmi_version=1 pmi_subversion=1\n")
                .server("cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n")
                .client("cmd=get_maxes\n")
                .server("cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024\n")
                .client("cmd=get_my_kvsname\n")
                .server("cmd=my_kvsname kvsname=kvs_19158_0_1677204807_vm\n")
                .client("cmd=put kvsname=kvs_19158_0_1677204807_vm key=ferry.node.0.n value=1\n")
                .server("cmd=put_result rc=0 msg=success\n")
                .client("cmd=barrier_in\n")
                .server("cmd=barrier_out\n")
                .client("cmd=get kvsname=kvs_19158_0_1677204807_vm key=ferry.node.0.n\n")
                .server("cmd=get_result rc=0 msg=success value=1\n")
                .client("cmd=get kvsname=kvs_19158_0_1677204807_vm key=none\n")
                .server("cmd=get_result rc=-1 msg=key_none_not_found\n")
                .client("cmd=finalize\n")
                .server("cmd=finalize_ack\n");
        Bootstrap b = Bootstraps.open(t, "1", -1, 0, 1);
        assertInstanceOf(Pmi1Client.class, b);
        assertEquals(1024, b.maxValueLength());
        assertEquals(64, b.maxKeyLength());
        b.put("ferry.node.0.n", "1");
        b.fence();
        assertEquals("1", b.get("ferry.node.0.n"));
        assertNull(b.get("none"));
        b.close();
        assertTrue(t.finished());
    }

    @Test
    void pmi1PortModeWithInitack() {
        ScriptedTransport t = new ScriptedTransport()
                .client("cmd=initack pmiid=2\n")
                .server("cmd=initack\ncmd=set size=4\ncmd=set rank=2\ncmd=set debug=0\n")
                .client("cmd=init pmi_version=1 pmi_subversion=1\n")
                .server("cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n")
                .client("cmd=get_maxes\n")
                .server("cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024\n")
                .client("cmd=get_my_kvsname\n")
                .server("cmd=my_kvsname kvsname=kvs_42\n")
                .client("cmd=abort exitcode=7\n");
        Bootstrap b = Bootstraps.open(t, "auto", 2, -1, -1);
        assertEquals(2, b.rank());
        assertEquals(4, b.size());
        b.abort(7, "giving up");
        assertTrue(t.finished());
    }

    @Test
    void aLauncherThatDeclinesPmi2GetsPmi1() {
        ScriptedTransport t = new ScriptedTransport()
                .client("cmd=init pmi_version=2 pmi_subversion=0\n")
                .server("cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n")
                .client("cmd=get_maxes\n")
                .server("cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024\n")
                .client("cmd=get_my_kvsname\n")
                .server("cmd=my_kvsname kvsname=kvs_1\n");
        Bootstrap b = Bootstraps.open(t, "auto", -1, 0, 2);
        assertEquals("pmi-1", b.protocol());
        assertTrue(t.finished());
    }

    @Test
    void errorsFromTheLauncherAreClear() {
        ScriptedTransport t = new ScriptedTransport()
                .client("cmd=init pmi_version=1 pmi_subversion=1\n")
                .server("cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-1\n");
        PmiException e = assertThrows(PmiException.class, () -> Bootstraps.open(t, "1", -1, 0, 1));
        assertTrue(e.getMessage().contains("rc=-1"), e.getMessage());
        ScriptedTransport gone = new ScriptedTransport().client("cmd=init pmi_version=1 pmi_subversion=1\n");
        PmiException e2 = assertThrows(PmiException.class, () -> Bootstraps.open(gone, "1", -1, 0, 1));
        assertTrue(e2.getMessage().contains("closed"), e2.getMessage());
        ScriptedTransport forced = new ScriptedTransport()
                .client("cmd=init pmi_version=2 pmi_subversion=0\n")
                .server("cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n");
        assertThrows(PmiException.class, () -> Bootstraps.open(forced, "2", -1, 0, 1));
    }
}
