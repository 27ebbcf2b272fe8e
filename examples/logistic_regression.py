"""Logistic regression by batch gradient descent, written with PyKokkos'
array library: the data are pk.array Views, the model is trained with
ufuncs (pk.exp, pk.add, ...), reductions (pk.sum, pk.mean, pk.std) and
pk.matmul, and one workunit of our own turns probabilities into labels.

Two Gaussian classes in D dimensions; the features are standardized
(pk.mean / pk.std over axis 0, broadcast against the rows). The same
computation in numpy checks the weights, the loss and the accuracy.

    python3 examples/logistic_regression.py [N D EPOCHS]
"""
# test-args: 2000 8 100
import sys

import numpy as np
import pykokkos as pk


@pk.workunit
def classify(i: int, p: pk.View1D[pk.double], labels: pk.View1D[pk.int32], threshold: float):
    if p[i] >= threshold:
        labels[i] = 1
    else:
        labels[i] = 0


def sigmoid(z):
    return pk.divide(1.0, pk.add(1.0, pk.exp(pk.negative(z))))


def log_loss(p, y):
    p = pk.clip(p, 1e-12, 1.0 - 1e-12)
    terms = pk.add(pk.multiply(y, pk.log(p)),
                   pk.multiply(pk.subtract(1.0, y), pk.log(pk.subtract(1.0, p))))
    return -float(pk.mean(terms))


def train(X, y, lr, epochs):
    n, d = X.shape
    w = pk.zeros(d)
    b = 0.0
    Xt = pk.transpose(X)
    for _ in range(epochs):
        p = sigmoid(pk.add(pk.matmul(X, w), b))
        err = pk.subtract(p, y)
        grad_w = pk.multiply(pk.matmul(Xt, err), 1.0 / n)
        w = pk.subtract(w, pk.multiply(grad_w, lr))
        b -= lr * float(pk.sum(err)) / n
    return w, b


def train_numpy(X, y, lr, epochs):
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    for _ in range(epochs):
        p = 1.0 / (1.0 + np.exp(-(X @ w + b)))
        err = p - y
        w = w - lr * (X.T @ err / n)
        b -= lr * float(err.sum()) / n
    return w, b


def make_data(n, d, seed=7):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.5).astype(np.float64)
    centers = np.stack([np.full(d, -1.0), np.full(d, 1.0)])
    X = rng.normal(size=(n, d)) * 1.5 + centers[y.astype(int)]
    X[:, 0] = X[:, 0] * 10.0 + 3.0   # a feature on another scale
    return X, y


def main():
    n, d, epochs = (int(a) for a in (sys.argv[1:4] if len(sys.argv) > 3 else (20000, 16, 200)))
    lr = 0.5
    X_np, y_np = make_data(n, d)

    X = pk.array(X_np)
    y = pk.array(y_np)
    mu = pk.mean(X, axis=0)
    sigma = pk.std(X, axis=0)
    Xs = pk.divide(pk.subtract(X, mu), sigma)

    timer = pk.Timer()
    w, b = train(Xs, y, lr, epochs)
    seconds = timer.seconds()
    p = sigmoid(pk.add(pk.matmul(Xs, w), b))
    labels = pk.View([n], pk.int32)
    pk.parallel_for(n, classify, p=p, labels=labels, threshold=0.5)
    accuracy = float(pk.mean(pk.equal(labels, y)))
    loss = log_loss(p, y)
    print(f"logistic_regression: N={n} D={d} epochs={epochs} trained in {seconds:.3f} s; "
          f"loss {loss:.6f}, accuracy {accuracy:.4f}")

    Xs_np = (X_np - X_np.mean(axis=0)) / X_np.std(axis=0)
    w_np, b_np = train_numpy(Xs_np, y_np, lr, epochs)
    p_np = 1.0 / (1.0 + np.exp(-(Xs_np @ w_np + b_np)))
    acc_np = float(((p_np >= 0.5) == (y_np == 1)).mean())
    pc = np.clip(p_np, 1e-12, 1 - 1e-12)
    loss_np = -float(np.mean(y_np * np.log(pc) + (1 - y_np) * np.log(1 - pc)))
    werr = float(np.max(np.abs(np.asarray(w) - w_np)) / np.max(np.abs(w_np)))
    ok = (werr < 1e-9 and abs(b - b_np) < 1e-9 and abs(loss - loss_np) < 1e-9
          and accuracy == acc_np and accuracy > 0.9)
    if not ok:
        print(f"logistic_regression: verification FAILED (weights rel. error {werr:.2e}, "
              f"bias {b!r} vs {b_np!r}, loss {loss!r} vs {loss_np!r}, "
              f"accuracy {accuracy} vs {acc_np})")
        sys.exit(1)
    print(f"logistic_regression: verification PASSED (weights match numpy to {werr:.1e}, "
          f"accuracy {accuracy:.4f} as numpy)")


if __name__ == "__main__":
    main()
