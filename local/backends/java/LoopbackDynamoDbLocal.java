import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.net.BindException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.server.AbstractNetworkConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts DynamoDB Local listening on 127.0.0.1 only. Its own command line has no host option and
 * listens on every interface, which would expose the local database to the network.
 *
 * <p>Arguments are DynamoDB Local's own (-port, -dbPath, -inMemory, ...), except that {@code -port 0}
 * is accepted and picks a free port (DynamoDB Local itself rejects 0). Once it listens, one line {@code READY http://127.0.0.1:<port>} goes to stdout so the
 * parent learns the port without racing another process for it. The server exits when its stdin
 * closes, so a parent that dies without cleaning up (SIGKILL, a crash) leaves no orphan behind.
 */
public final class LoopbackDynamoDbLocal {
    private static final String HOST = "127.0.0.1";
    private static final int EXIT_PORT_IN_USE = 3;
    private static final int EXIT_START_FAILED = 4;
    private static final int DEFAULT_PORT = 8000;
    /**
     * Connections the kernel holds for Jetty to accept. Jetty's default asks Java for its own, 50: a
     * test's flood of concurrent requests, arriving while a busy JVM is slow to accept, overflowed it,
     * and Linux drops a SYN the queue has no room for; the client sends it again only a second later,
     * past the functions' 1 s connect limit. Linux caps the size at net.core.somaxconn (4096 since 5.4).
     */
    private static final int ACCEPT_QUEUE_SIZE = 1024;

    private LoopbackDynamoDbLocal() {}

    public static void main(String[] args) throws Exception {
        List<String> serverArgs = new ArrayList<>(List.of(args));
        int port = takePort(serverArgs);
        DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(serverArgs.toArray(String[]::new));
        Server jetty = jettyServerOf(proxy);
        for (Connector connector : jetty.getConnectors()) {
            if (connector instanceof AbstractNetworkConnector network) {
                network.setHost(HOST);
                network.setPort(port);
            }
            if (connector instanceof ServerConnector server) {
                server.setAcceptQueueSize(ACCEPT_QUEUE_SIZE);
            }
        }
        try {
            // safeStart starts Jetty without the start-up telemetry that start() sends.
            proxy.safeStart();
        } catch (Exception error) {
            if (hasCause(error, BindException.class)) {
                System.err.println("PORT_IN_USE " + error.getMessage());
                System.exit(EXIT_PORT_IN_USE);
            }
            System.err.println("START_FAILED " + error);
            System.exit(EXIT_START_FAILED);
        }
        int boundPort = ((AbstractNetworkConnector) jetty.getConnectors()[0]).getLocalPort();
        System.out.println("READY http://" + HOST + ":" + boundPort);
        System.out.flush();
        exitWhenStdinCloses();
        jetty.join();
    }

    /** Removes {@code -port N} from the arguments and returns N; the port is set on Jetty directly. */
    private static int takePort(List<String> serverArgs) {
        int index = serverArgs.indexOf("-port");
        if (index < 0 || index + 1 >= serverArgs.size()) {
            return DEFAULT_PORT;
        }
        int port = Integer.parseInt(serverArgs.get(index + 1));
        serverArgs.subList(index, index + 2).clear();
        return port;
    }

    /** DynamoDBProxyServer keeps its Jetty server private; the host can only be set through it. */
    private static Server jettyServerOf(DynamoDBProxyServer proxy) throws ReflectiveOperationException {
        Field field = DynamoDBProxyServer.class.getDeclaredField("server");
        field.setAccessible(true);
        return (Server) field.get(proxy);
    }

    private static boolean hasCause(Throwable error, Class<? extends Throwable> type) {
        for (Throwable current = error; current != null; current = current.getCause()) {
            if (type.isInstance(current)) {
                return true;
            }
        }
        return false;
    }

    private static void exitWhenStdinCloses() {
        Thread watcher = new Thread(() -> {
            InputStream in = System.in;
            byte[] buffer = new byte[64];
            try {
                while (in.read(buffer) >= 0) {
                    // Input is ignored: only the end of the stream matters.
                }
            } catch (IOException ignored) {
                // A broken pipe means the parent is gone, the same as end of stream.
            }
            System.exit(0);
        }, "parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }
}
