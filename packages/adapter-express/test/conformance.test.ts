import { describeConformance } from '@store/test-kit';
import express from 'express';
import express4 from 'express4';
import { serveWith } from './serve';

describeConformance('Express 5', serveWith(express));
describeConformance('Express 4', serveWith(express4));
