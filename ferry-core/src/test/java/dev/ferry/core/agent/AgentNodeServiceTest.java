package dev.ferry.core.agent;

import dev.ferry.launch.run.NodeService;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.*;

/** The launcher's part in agent mode: found by the launcher, idle with agent mode off, a bad setting refused before any rank starts. */
class AgentNodeServiceTest {

    private static NodeService.NodeJob job(Map<String, String> env) {
        return new NodeService.NodeJob("job", "key", List.of(0, 1), env, List.of("java"), "");
    }

    @Test
    void theLauncherFindsIt() {
        assertTrue(ServiceLoader.load(NodeService.class).stream().anyMatch(p -> p.type() == AgentNodeService.class));
    }

    @Test
    void agentModeOffStartsNothing() throws IOException {
        assertNull(new AgentNodeService().start(job(Map.of())));
        assertNull(new AgentNodeService().start(job(Map.of("FERRY_AGENT", "off"))));
    }

    @Test
    void aBadSettingIsTheLaunchersErrorNamingIt() {
        IOException e = assertThrows(IOException.class, () -> new AgentNodeService().start(job(Map.of("FERRY_AGENT", "bogus"))));
        assertEquals("FERRY_AGENT: 'bogus' is neither on nor off", e.getMessage());
        e = assertThrows(IOException.class, () -> new AgentNodeService().start(job(Map.of("FERRY_AGENT", "on", "FERRY_MAX_CONNECTIONS", "lots"))));
        assertTrue(e.getMessage().startsWith("FERRY_MAX_CONNECTIONS"), e.getMessage());
    }
}
