"""Issue 21 section 2: a logistic regression written the way PyKokkos' ML
examples write it (upstream examples/LogisticRegression): scikit-learn's
breast-cancer data in pk arrays, labels through pk.unique, the intercept
column by pk.hstack, the model by pk.np_matmul with upstream's keyword
spellings (viewA=/viewB=, view=), a gradient-descent fit, pk.argmax over
class scores. Checked against the same iterations in numpy."""
import sys

import numpy as np
import pykokkos as pk
from sklearn.datasets import load_breast_cancer


def sigmoid(z):
    return pk.reciprocal(view=pk.add(viewA=pk.exp(view=pk.negative(z)), viewB=1.0))


def fit(X, y, steps, lr):
    n, d = X.shape
    Xb = pk.hstack(pk.ones((n, 1)), X)                # PyKokkos' two-argument form
    w = pk.zeros(d + 1, dtype=pk.double)
    Xt = pk.transpose(Xb)
    for _ in range(steps):
        p = sigmoid(pk.np_matmul(viewA=Xb, viewB=w))
        grad = pk.divide(pk.np_matmul(Xt, pk.subtract(viewA=p, valB=y)), float(n))
        w = pk.subtract(w, pk.multiply(grad, lr))
    return w, Xb


def fit_numpy(X, y, steps, lr):
    n, d = X.shape
    Xb = np.hstack((np.ones((n, 1)), X))
    w = np.zeros(d + 1)
    for _ in range(steps):
        p = 1.0 / (np.exp(-(Xb @ w)) + 1.0)
        w = w - (Xb.T @ (p - y) / n) * 0.5
    return w, Xb


def main():
    X, y = load_breast_cancer(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)          # standardized features
    classes = pk.unique(pk.array(y))
    if list(np.asarray(classes)) != [0, 1]:
        print(f"BAD classes {classes}")
        sys.exit(1)
    Xv, yv = pk.array(X), pk.array(y.astype(np.float64))
    w, Xb = fit(Xv, yv, 60, 0.5)
    w_np, Xb_np = fit_numpy(X, y.astype(np.float64), 60, 0.5)
    if not np.allclose(np.asarray(w), w_np, rtol=1e-10, atol=1e-12):
        print(f"BAD weights differ from numpy's by {np.abs(np.asarray(w) - w_np).max()}")
        sys.exit(1)
    p1 = sigmoid(pk.np_matmul(Xb, w))
    scores = pk.vstack((pk.subtract(1.0, p1), p1))     # (2, n): one row per class
    pred = pk.argmax(scores, axis=0)
    p_np = 1.0 / (np.exp(-(Xb_np @ w_np)) + 1.0)
    want = np.argmax(np.vstack((1.0 - p_np, p_np)), axis=0)
    acc = float(pk.mean(pk.equal(pred, pk.array(y))))
    if not np.array_equal(np.asarray(pred), want) or acc < 0.95:
        print(f"BAD predictions (accuracy {acc})")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
