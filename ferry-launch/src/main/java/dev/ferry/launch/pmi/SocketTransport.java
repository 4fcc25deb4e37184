package dev.ferry.launch.pmi;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/** PMI over a TCP connection to the process manager (PMI_PORT=host:port). */
public final class SocketTransport implements PmiTransport {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    public SocketTransport(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0) {
            throw new PmiException("PMI_PORT must be HOST:PORT, not '" + hostPort + "'");
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new PmiException("PMI_PORT has a bad port: '" + hostPort + "'");
        }
        try {
            socket = new Socket();
            socket.connect(new InetSocketAddress(hostPort.substring(0, colon), port), 30_000);
            socket.setTcpNoDelay(true);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        } catch (IOException e) {
            throw new PmiException("cannot reach the process manager at PMI_PORT=" + hostPort + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void write(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new PmiException("writing to the process manager failed: " + e.getMessage(), e);
        }
    }

    @Override
    public int read(byte[] buf, int off, int len) {
        try {
            return in.read(buf, off, len);
        } catch (IOException e) {
            throw new PmiException("reading from the process manager failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
