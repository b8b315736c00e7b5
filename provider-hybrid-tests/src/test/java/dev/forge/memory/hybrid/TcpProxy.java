package dev.forge.memory.hybrid;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on the loopback address in front of a real server: the fault tests point a child at it and cut the line
 * ({@link #stop()}: every connection is closed and the port refuses new ones) to take the child's backend away mid-run,
 * then {@link #start()} it again on the same port. Only ever relays to a server of this machine.
 */
final class TcpProxy implements AutoCloseable {

    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private int port;
    private ServerSocket server;

    /** A relay to {@code host:targetPort}, started on a free port. */
    TcpProxy(String host, int targetPort) throws IOException {
        this.target = new InetSocketAddress(host, targetPort);
        start();
    }

    /** The port the relay listens on. */
    int port() {
        return port;
    }

    /** Listens again (on the same port after a stop). */
    synchronized void start() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        port = socket.getLocalPort();
        server = socket;
        Thread acceptor = new Thread(() -> accept(socket), "tcp-proxy-accept-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept(ServerSocket socket) {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                Socket upstream = new Socket();
                upstream.connect(target, 5_000);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                // closed by stop(), or the target refused: the client sees its connection close
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the other side or stop() closed it
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    /** Cuts every connection and stops listening. */
    synchronized void stop() {
        closeQuietly(server);
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        sockets.clear();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            if (closeable != null) {
                closeable.close();
            }
        } catch (Exception e) {
            // nothing to do: it is going away
        }
    }

    @Override
    public void close() {
        stop();
    }
}
